// The webhook address policy, judged on addresses and URLs alone: nothing here opens a connection or looks up a name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressProblem, staticUrlProblem } from '../../src/modules/webhooks/target-policy.js';

const production = { allowLoopback: false };
const sandbox = { allowLoopback: true };

describe('webhook target policy', () => {
  it('refuses IPv4-compatible IPv6 addresses (::/96) in every form, in production and sandbox', () => {
    for (const address of ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::169.254.169.254', '::10.0.0.1', '::8.8.8.8']) {
      for (const policy of [production, sandbox]) {
        assert.match(addressProblem(address, policy) ?? '', /IPv4-compatible/, `${address} ${JSON.stringify(policy)}`);
      }
    }
    for (const url of ['https://[::127.0.0.1]/hook', 'https://[::a9fe:a9fe]/hook', 'http://[::127.0.0.1]/hook']) {
      assert.ok(staticUrlProblem(url, production).problem, url);
      assert.ok(staticUrlProblem(url, sandbox).problem, url);
    }
  });

  it('still refuses the other non-public forms and allows public ones', () => {
    for (const address of [
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
      'fe80::1',
      'fc00::1',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      assert.ok(addressProblem(address, production), address);
    }
    for (const address of ['2001:4860:4860::8888', '8.8.8.8', '1.1.1.1']) {
      assert.equal(addressProblem(address, production), undefined, address);
    }
    assert.equal(addressProblem('::1', sandbox), undefined, 'loopback is allowed in the sandbox when asked');
    assert.equal(staticUrlProblem('http://127.0.0.1:9/hook', sandbox).problem, undefined);
    assert.ok(staticUrlProblem('http://127.0.0.1:9/hook', production).problem);
  });
});
