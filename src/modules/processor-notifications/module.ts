import { defineModule } from '../manifest.js';
import { notificationQueues, notificationSchedules } from './processor-notifications.queues.js';
import { processorNotificationRoutes } from './processor-notifications.routes.js';
import { ProcessorNotificationsService } from './processor-notifications.service.js';

declare module '../services.js' {
  interface Services {
    /** Card processors' notifications: verified, recorded once, applied through the payments core. */
    processorNotifications: ProcessorNotificationsService;
  }
}

export const processorNotificationsModule = defineModule({
  folder: 'modules/processor-notifications',
  summary: "Card processors' notifications (Adyen's): verified, recorded once each, applied through the payments core.",
  tables: ['processor_notifications'],
  needs: ['processors', 'cardPayments'],
  provides: ['processorNotifications'],
  build({ pool, clock, logger }, { processors, cardPayments }) {
    return {
      processorNotifications: new ProcessorNotificationsService(pool, clock, logger, processors, cardPayments),
    };
  },
  routes: (app, { processorNotifications }) => processorNotificationRoutes(app, processorNotifications),
  queues: ({ processorNotifications }, { clock }) => notificationQueues(processorNotifications, () => clock.now()),
  schedules: notificationSchedules,
});
