import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const KEY = Buffer.alloc(32, 1).toString('base64');

describe('configuration', () => {
  it('defaults to a sandbox on 127.0.0.1:8080 with an embedded database in ./data', () => {
    const config = loadConfig({}, '/srv/tessera');
    assert.equal(config.env, 'sandbox');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
    assert.equal(config.authBaseUrl, 'http://127.0.0.1:8080');
    assert.equal(config.dataDir, '/srv/tessera/data');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.accessTokenTtlSeconds, 900);
    assert.equal(config.rateLimitPerMinute, 1200);
    assert.equal(config.rateLimitBurstPer10s, 300);
    assert.equal(config.idempotencyRetentionMinutes, 1440);
    assert.ok(Object.isFrozen(config));
  });

  it('refuses to start production without ADMIN_TOKEN, ENCRYPTION_KEY and an https PUBLIC_BASE_URL, naming each', () => {
    assert.throws(
      () => loadConfig({ TESSERA_ENV: 'production' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /ADMIN_TOKEN/);
        assert.match(error.message, /ENCRYPTION_KEY/);
        assert.match(error.message, /PUBLIC_BASE_URL/);
        return true;
      },
    );
    assert.throws(
      () =>
        loadConfig({
          TESSERA_ENV: 'production',
          ADMIN_TOKEN: 'a'.repeat(32),
          ENCRYPTION_KEY: KEY,
          PUBLIC_BASE_URL: 'http://payments.example.com',
        }),
      /https/,
    );
    const ok = loadConfig({
      TESSERA_ENV: 'production',
      ADMIN_TOKEN: 'a'.repeat(32),
      ENCRYPTION_KEY: KEY,
      PUBLIC_BASE_URL: 'https://payments.example.com/',
    });
    assert.equal(ok.publicBaseUrl, 'https://payments.example.com');
  });

  it('rejects malformed values with a message naming the variable', () => {
    for (const [env, name] of [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ TESSERA_ENV: 'staging' }, 'TESSERA_ENV'],
      [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ENCRYPTION_KEY'],
      [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
      [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
      [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
      [{ WORKERS: '-1' }, 'WORKERS'],
    ] as const) {
      assert.throws(() => loadConfig(env), new RegExp(name), JSON.stringify(env));
    }
  });
});
