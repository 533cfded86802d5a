import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server tests use: `RK_TEST_DATABASE_URL`, or the role `.ci/run` creates on the local
 * cluster. Each test makes its own database on it and drops it.
 */
export const TEST_SERVER_URL =
  process.env.RK_TEST_DATABASE_URL ?? 'postgres://roundkeeper:roundkeeper@127.0.0.1:5432/postgres';

/**
 * Whether the test server answers. Without one, PostgreSQL tests are skipped on a developer's machine
 * (with a line saying so) but fail in CI (`CI=true`, or `RK_REQUIRE_POSTGRES=1` as `.ci/run` sets after
 * starting it).
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const why = `no PostgreSQL at ${TEST_SERVER_URL.replace(/:[^:@/]*@/, ':…@')} (${(error as Error).message})`;
    const env = process.env;
    if (env.RK_REQUIRE_POSTGRES === '1' || env.CI === 'true' || env.CI === '1')
      throw new Error(`${why}: CI must run the PostgreSQL tests (.ci/run starts the cluster).`);
    process.stderr.write(`Skipping PostgreSQL tests: ${why}. Start it with .ci/run's lines.\n`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database with a random name; `drop()` removes it (closing whatever still uses it). */
export async function testDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client(TEST_SERVER_URL);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client(TEST_SERVER_URL);
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}
