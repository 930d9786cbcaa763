import { defineModule } from '../manifest.js';
import { PartnersService } from './partners.service.js';

declare module '../services.js' {
  interface Services {
    partners: PartnersService;
  }
}

export const partnersModule = defineModule({
  folder: 'modules/partners',
  summary: 'Partners: the software vendors that manage many merchants.',
  tables: ['partners'],
  publishes: ['partner_accounts'],
  needs: [],
  provides: ['partners'],
  build: ({ pool, clock }) => ({ partners: new PartnersService(pool, clock) }),
});
