/**
 * A real Prometheus for tests (Debian's `prometheus`): scrapes the given targets every second, keeps its data in
 * a temporary directory, listens on a free port; `value(query)` asks its query API, `waitForValue` polls it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@entropic-mcp/test-kit/ports';
import { waitFor } from '@entropic-mcp/test-kit/wait';

export interface PrometheusProcess {
  readonly url: string;
  /** The instant value of `query` (summed over its series), or undefined when it has none. */
  value(query: string): Promise<number | undefined>;
  /** Polls `query` until it equals `expected`; fails with the last value seen. */
  waitForValue(query: string, expected: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startPrometheus(targets: readonly string[]): Promise<PrometheusProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'emcp-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  const list = targets.map((t) => `'${t}'`).join(', ');
  writeFileSync(
    config,
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: entropic-mcp\n    static_configs:\n      - targets: [${list}]\n`,
  );
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.once('error', () => {});
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 30_000, 'prometheus');
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${errors}`);
  }
  const url = `http://127.0.0.1:${port}`;
  const value = async (query: string): Promise<number | undefined> => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
    const body = (await res.json()) as { status: string; data?: { result: { value: [number, string] }[] } };
    if (body.status !== 'success') throw new Error(`prometheus refused ${query}: ${JSON.stringify(body)}`);
    const result = body.data?.result ?? [];
    if (result.length === 0) return undefined;
    return result.reduce((sum, series) => sum + Number(series.value[1]), 0);
  };
  return {
    url,
    value,
    async waitForValue(query, expected, timeoutMs = 30_000) {
      let last: number | undefined;
      await waitFor(
        async () => {
          last = await value(query);
          return last === expected;
        },
        `prometheus: ${query} to be ${expected}`,
        timeoutMs,
      ).catch((error: Error) => {
        throw new Error(`${error.message} (it stayed ${String(last)})`);
      });
    },
    stop,
  };
}
