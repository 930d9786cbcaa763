// Three implementations of Adyen's notification signature must agree: Tessera's (which checks what Adyen sends), the
// fake's (which signs what it sends in the tests) and Adyen's own library (@adyen/api-library's HmacValidator).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hmacValidator as HmacValidator } from '@adyen/api-library';
import {
  type AdyenNotificationItem,
  basicAuthMatches,
  hmacSignature,
  itemsAreSigned,
} from '../../src/connectors/card/adyen/adyen-notifications.js';
import { fromAdyenReference, toAdyenReference } from '../../src/connectors/card/adyen/adyen-wire.js';
import { ADYEN_FACTS } from '../fakes/adyen/adyen-contract.js';
import { signItem } from '../fakes/adyen/fake-adyen-notifier.js';

const KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';

/** Every item of Adyen's own notification examples (the facts), whatever the event. */
function exampleItems(): AdyenNotificationItem[] {
  return Object.values(ADYEN_FACTS.notifications)
    .flatMap((n) =>
      n.request.examples.flatMap(
        (e) =>
          (e as { notificationItems: Array<{ NotificationRequestItem: AdyenNotificationItem }> }).notificationItems,
      ),
    )
    .map((w) => w.NotificationRequestItem);
}

describe("Adyen's notification signature", () => {
  it("is the same from Tessera, the fake and Adyen's library, for every example item of Adyen's documents", () => {
    const validator = new HmacValidator();
    const items = exampleItems();
    assert.ok(items.length >= 10);
    for (const item of items) {
      const ours = hmacSignature(item, KEY);
      assert.equal(ours, signItem(item as never, KEY), `${item.eventCode}: the fake signs the same`);
      assert.equal(ours, validator.calculateHmac(item as never, KEY), `${item.eventCode}: Adyen's library agrees`);
      const signed = { ...item, additionalData: { ...(item.additionalData ?? {}), hmacSignature: ours } };
      assert.equal(validator.validateHMAC(signed as never, KEY), true);
      assert.equal(itemsAreSigned([signed], [{ hmacKey: KEY }], item.merchantAccountCode), true);
    }
  });

  it('refuses a changed amount, another key, another merchant account and a missing signature', () => {
    const [item] = exampleItems();
    const signed = { ...item!, additionalData: { hmacSignature: hmacSignature(item!, KEY) } };
    const account = item!.merchantAccountCode;
    assert.equal(
      itemsAreSigned([{ ...signed, amount: { ...signed.amount, value: 1 } }], [{ hmacKey: KEY }], account),
      false,
    );
    assert.equal(itemsAreSigned([signed], [{ hmacKey: 'AB'.repeat(32) }], account), false);
    assert.equal(itemsAreSigned([signed], [{ hmacKey: KEY }], 'AnotherAccount'), false);
    assert.equal(itemsAreSigned([{ ...signed, additionalData: {} }], [{ hmacKey: KEY }], account), false);
    // Any usable version's key will do (a rotation's overlap).
    assert.equal(itemsAreSigned([signed], [{ hmacKey: 'AB'.repeat(32) }, { hmacKey: KEY }], account), true);
  });

  it('checks Basic credentials against every usable version, and nothing else', () => {
    const versions = [
      { notificationUsername: 'adyen', notificationPassword: 'new-password' },
      { notificationUsername: 'adyen', notificationPassword: 'old-password' },
    ];
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    assert.equal(basicAuthMatches(basic('adyen', 'new-password'), versions), true);
    assert.equal(basicAuthMatches(basic('adyen', 'old-password'), versions), true);
    assert.equal(basicAuthMatches(basic('adyen', 'guess'), versions), false);
    assert.equal(basicAuthMatches(basic('other', 'new-password'), versions), false);
    assert.equal(basicAuthMatches(undefined, versions), false);
    assert.equal(basicAuthMatches('Bearer x', versions), false);
  });

  it("keeps Tessera's references within Adyen's 80 characters and brings them back", () => {
    const reference = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c80:tip-adjust:01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c81';
    const compact = toAdyenReference(reference);
    assert.ok(compact.length <= 80, `${compact.length} characters`);
    assert.equal(fromAdyenReference(compact), reference);
    assert.equal(
      fromAdyenReference(toAdyenReference(`${reference}:technical-cancel`)),
      `${reference}:technical-cancel`,
    );
  });
});
