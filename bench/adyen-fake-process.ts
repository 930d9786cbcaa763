// The fake of Adyen (test/fakes/adyen: every request validated against Adyen's published schemas, answers shaped by
// them) in a process of its own, so the Adyen sale's benchmark measures the connector, not a fake sharing the load
// generator's event loop. Sends its URL over IPC; takes the notification URL the same way.
import { FakeAdyen } from '../test/fakes/adyen/fake-adyen.js';
import { ADYEN_BENCH_ACCOUNT } from './adyen-account.js';

const fake = await new FakeAdyen(ADYEN_BENCH_ACCOUNT).start();
// Nothing asserts on what it saw: kept, every request and notification would stay in its heap for the whole run.
fake.keepHistory = false;
fake.notifier.keepHistory = false;
process.send?.({ url: fake.url });
process.on('message', (message: { notificationUrl?: string; violations?: boolean }) => {
  if (message.notificationUrl) fake.notifier.url = message.notificationUrl;
  if (message.violations) {
    // Every notification must have been accepted by the end (an unaccepted one is retried, then a violation): a run
    // whose notifications Tessera refused would otherwise measure a server that skipped their work.
    const settled = fake.notifier.settled().catch(() => undefined); // a delivery that gave up is a violation itself
    void Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 30_000))]).then(() => {
      const all = [
        ...fake.violations,
        ...fake.notifier.violations,
        ...(fake.notifier.pending > 0 ? [`${fake.notifier.pending} notifications not accepted after 30 s`] : []),
      ];
      process.send?.({ violations: all.slice(0, 20), count: all.length });
    });
  }
});
process.on('SIGTERM', async () => {
  await fake.stop();
  process.exit(0);
});
