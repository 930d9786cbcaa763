import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ADYEN_FACTS, notificationErrors, requestErrors, responseErrors } from '../fakes/adyen/adyen-contract.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PINNED_DOCS = path.resolve(ROOT, '../shared/specs/adyen');

/** A card payment example: the facts narrow `paymentMethod` to CardDetails, so the other methods' examples are not ours. */
function isCardExample(example: unknown): boolean {
  const method = (example as { paymentMethod?: { type?: string } }).paymentMethod;
  return method === undefined || ['scheme', 'card', 'networkToken'].includes(method.type ?? 'scheme');
}

describe("Adyen's contract (facts from the pinned documents)", () => {
  it("accepts every one of Adyen's own examples of the operations and notifications Tessera uses", () => {
    let checked = 0;
    for (const [name, op] of Object.entries(ADYEN_FACTS.operations)) {
      for (const example of op.request.examples.filter(isCardExample)) {
        assert.deepEqual(requestErrors(name, example), [], `${name} request example`);
        checked++;
      }
      for (const [status, media] of Object.entries(op.responses)) {
        for (const example of media?.examples ?? []) {
          assert.deepEqual(responseErrors(name, Number(status), example), [], `${name} ${status} example`);
          checked++;
        }
      }
    }
    for (const [code, notification] of Object.entries(ADYEN_FACTS.notifications)) {
      assert.ok(notification.request.examples.length > 0, `${code} has an example`);
      for (const example of notification.request.examples) {
        assert.deepEqual(notificationErrors(code, example), [], `${code} example`);
        checked++;
      }
    }
    assert.ok(checked >= 40, `${checked} examples checked`);
  });

  it('refuses an invented field, a wrong type, a missing required field and an undocumented status', () => {
    const capture = ADYEN_FACTS.operations['POST /payments/{paymentPspReference}/captures']!;
    const good = capture.request.examples[0] as Record<string, unknown>;
    assert.deepEqual(requestErrors('POST /payments/{paymentPspReference}/captures', good), []);
    assert.match(
      requestErrors('POST /payments/{paymentPspReference}/captures', { ...good, captureEverything: true }).join(),
      /additional properties \(captureEverything\)/,
    );
    assert.match(
      requestErrors('POST /payments/{paymentPspReference}/captures', {
        ...good,
        amount: { currency: 'USD', value: '1' },
      }).join(),
      /\/amount\/value must be integer/,
    );
    const { merchantAccount: _, ...withoutAccount } = good;
    assert.match(
      requestErrors('POST /payments/{paymentPspReference}/captures', withoutAccount).join(),
      /must have required property 'merchantAccount'/,
    );
    assert.match(responseErrors('POST /payments/{paymentPspReference}/captures', 200, {}).join(), /not an answer/);
    const answer = capture.responses['201']!.examples[0] as Record<string, unknown>;
    assert.match(
      responseErrors('POST /payments/{paymentPspReference}/captures', 201, { ...answer, status: 'captured' }).join(),
      /status must be equal to one of the allowed values/,
    );
  });

  it('checks a notification item by item: an unknown event code, or an item without its signature fields, fails', () => {
    const example = ADYEN_FACTS.notifications.CAPTURE!.request.examples[0] as {
      notificationItems: Array<{ NotificationRequestItem: Record<string, unknown> }>;
    };
    const item = example.notificationItems[0]!.NotificationRequestItem;
    const { pspReference: _, ...withoutPsp } = item;
    assert.match(
      notificationErrors('CAPTURE', {
        ...example,
        notificationItems: [{ NotificationRequestItem: withoutPsp }],
      }).join(),
      /required property 'pspReference'/,
    );
    assert.match(notificationErrors('AUTHORISATION_MAYBE', example).join(), /not a notification/);
  });

  it('pins the documents it was extracted from, and is exactly what the script extracts from them', () => {
    const script = readFileSync(path.join(ROOT, 'scripts/extract-adyen-contract.mjs'), 'utf8');
    for (const [file, digest] of Object.entries(ADYEN_FACTS.source.files)) {
      assert.match(digest, /^[0-9a-f]{64}$/);
      assert.ok(script.includes(`'${file}': '${digest}'`), `${file} is pinned by the script`);
    }
    // Where the workplace's copy of the documents is at hand, extracting again must give the committed facts.
    if (existsSync(PINNED_DOCS)) {
      const extracted = execFileSync(process.execPath, ['scripts/extract-adyen-contract.mjs', PINNED_DOCS], {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      }).toString();
      assert.equal(extracted, readFileSync(path.join(ROOT, 'test/fakes/adyen/adyen-contract.facts.json'), 'utf8'));
    }
  });
});
