import { defineModule } from '../manifest.js';
import { OPERATOR_OPERATIONS } from './operations.js';
import { OperatorService } from './operator.service.js';

declare module '../services.js' {
  interface Services {
    /** The operator credential (ADMIN_TOKEN, or the sandbox's generated one) the HTTP kernel checks. */
    operator: OperatorService;
  }
}

export const operatorModule = defineModule({
  folder: 'modules/operator',
  summary: 'The operator API (`/admin/v1`, `tessera admin`): its credential, and partners, merchants, keys, clock.',
  tables: ['operator_token'],
  needs: [],
  provides: ['operator'],
  async build({ pool, config }) {
    const operator = new OperatorService(pool, config);
    await operator.initialise();
    return { operator };
  },
  operations: OPERATOR_OPERATIONS,
});
