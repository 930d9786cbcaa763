import { every } from '../../platform/jobs/runner.js';
import { defineModule } from '../manifest.js';
import { maintenanceHandler, maintenanceQueue } from './maintenance.js';
import { systemRoutes } from './system.routes.js';

export const systemModule = defineModule({
  folder: 'modules/system',
  summary: "The node's own routes (health, readiness, metrics, environment) and the platform's maintenance job.",
  tables: [],
  needs: [],
  provides: [],
  routes: (app, _services, { pool, metrics, clock, config }) =>
    systemRoutes(app, { pool, metrics, clock, environment: config.env }),
  queues: (_services, { pool, clock, logger }) => [maintenanceHandler(pool, clock, logger)],
  schedules: [{ name: 'maintenance', queue: maintenanceQueue.name, next: every(600) }],
});
