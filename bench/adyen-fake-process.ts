// The fake of Adyen (test/fakes/adyen: every request validated against Adyen's published schemas, answers shaped by
// them) in a process of its own, so the Adyen sale's benchmark measures the connector, not a fake sharing the load
// generator's event loop. Sends its URL over IPC; takes the notification URL the same way.
import { FakeAdyen } from '../test/fakes/adyen/fake-adyen.js';
import { ADYEN_BENCH_ACCOUNT } from './adyen-account.js';

const fake = await new FakeAdyen(ADYEN_BENCH_ACCOUNT).start();
process.send?.({ url: fake.url });
process.on('message', (message: { notificationUrl?: string; violations?: boolean }) => {
  if (message.notificationUrl) fake.notifier.url = message.notificationUrl;
  if (message.violations) process.send?.({ violations: fake.violations.slice(0, 20), count: fake.violations.length });
});
process.on('SIGTERM', async () => {
  await fake.stop();
  process.exit(0);
});
