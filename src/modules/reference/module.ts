import { defineModule } from '../manifest.js';

export const referenceModule = defineModule({
  folder: 'modules/reference',
  summary: 'Reference data every module shares: addresses, phone numbers, US states.',
  tables: [],
  needs: [],
  provides: [],
});
