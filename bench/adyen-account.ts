import type { FakeAdyenAccount } from '../test/fakes/adyen/fake-adyen.js';

/** The merchant account the Adyen sale's benchmark configures, and its fake knows. */
export const ADYEN_BENCH_ACCOUNT: FakeAdyenAccount = {
  apiKey: 'AQE-bench-key-for-the-fake-0001',
  merchantAccount: 'TesseraBenchUS',
  hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  notificationUsername: 'adyen-notifications',
  notificationPassword: 'notification-password-bench',
};
