import { defineModule } from '../manifest.js';
import { systemRoutes } from './system.routes.js';

export const systemModule = defineModule({
  folder: 'modules/system',
  summary: "The node's own routes: health, readiness, metrics and the environment it runs in.",
  tables: [],
  needs: [],
  provides: [],
  routes: (app, _services, { pool, metrics, clock, config }) =>
    systemRoutes(app, { pool, metrics, clock, environment: config.env }),
});
