/**
 * The tables the platform owns (its migrations in src/platform/db/migrations create them): what every module builds
 * on — the deployment's identity, the business clock, key-encryption key fingerprints, jobs and schedules, rate-limit
 * counters, idempotency keys. Modules use them through the platform's code, never with SQL of their own.
 */
export const PLATFORM_TABLES = [
  'deployment',
  'clock_state',
  'key_encryption_keys',
  'jobs',
  'schedules',
  'rate_limit_counters',
  'idempotency_keys',
] as const;
