/**
 * Every metric label of `serve --metrics` is bounded, whatever clients send: 10,000 made-up method names (2025
 * sessions, 2026-07-28 requests, notifications, `com.x/y` style) with made-up tool, prompt and resource names
 * leave the series count of a real scrape where a hundred did. Unknown methods count as `_OTHER`.
 */
import { rmSync } from 'node:fs';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { afterAll, describe, expect, it } from 'vitest';
import { closeMadeUpAgent, sendMadeUpNames, seriesOf } from './support/made-up-requests.js';
import { buildFixture, type HttpServer, startHttp, tempDir } from './support/serve-helpers.js';

const dir = tempDir('observe-cardinality');
let server: HttpServer | undefined;

afterAll(async () => {
  closeMadeUpAgent();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The largest number of series a scrape may hold, however many names clients make up. */
const MAX_SERIES = 300;

describe('serve --metrics under made-up names', () => {
  it('keeps the series count of a scrape bounded after 10,000 distinct method names in both eras', async () => {
    const port = await freePort();
    server = await startHttp(['--plugin', buildFixture(dir, 'fx'), '--metrics', `127.0.0.1:${port}`]);
    const endpoint = server.url;
    const metrics = `http://127.0.0.1:${port}/metrics`;
    const scrape = async () => seriesOf(await (await fetch(metrics)).text());

    // A first round makes every kind of series there is (each era, each error, notifications).
    await sendMadeUpNames(endpoint, 'warm', 34);
    const before = await scrape();
    // Then 10,002 more distinct method names, with made-up tools, prompts and resources besides.
    const sent = await sendMadeUpNames(endpoint, 'flood', 3334);
    expect(sent).toBeGreaterThan(10_000);
    const after = await scrape();

    expect(after.length).toBeLessThanOrEqual(MAX_SERIES);
    expect(after.length).toBe(before.length);
    const madeUp = after.filter((line) => /made[-/]up|com\.example|no-such-/.test(line));
    expect(madeUp).toEqual([]);
    const other = after.filter(
      (line) =>
        line.startsWith('mcp_server_operation_duration_seconds_count{') &&
        line.includes('mcp_method_name="_OTHER"'),
    );
    const counted = other.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    // Three made-up methods for each of the 3,368 names of both rounds.
    expect(counted).toBe(3 * (34 + 3334));
  }, 300_000);
});
