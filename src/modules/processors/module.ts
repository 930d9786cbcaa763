import { defineModule } from '../manifest.js';
import { ProcessorAccessCache } from './processor-access-cache.js';
import { PROCESSOR_OPERATIONS } from './processors.operations.js';
import { ProcessorsService } from './processors.service.js';

declare module '../services.js' {
  interface Services {
    /** The operator's payment processors with their sealed credentials; connectors open them per call. */
    processors: ProcessorsService;
  }
}

export const processorsModule = defineModule({
  folder: 'modules/processors',
  summary:
    "Payment processors as the operator manages them: real connectors' settings and sealed, rotatable credentials.",
  tables: ['processor_credentials'],
  needs: ['merchants', 'dataKeys'],
  provides: ['processors'],
  build({ pool, clock, config, listener }, { merchants, dataKeys }) {
    const opened = new ProcessorAccessCache(config.configCacheTtlMs);
    opened.listen(listener);
    return { processors: new ProcessorsService(pool, clock, merchants, dataKeys, config.env, opened) };
  },
  operations: PROCESSOR_OPERATIONS,
});
