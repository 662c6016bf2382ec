/**
 * Leak check: the plugin host, with the echo example loaded, runs under valgrind while the test drives it
 * through the protocol; valgrind must find no definitely lost bytes and no memory errors.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { Writable } from 'node:stream';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { buildExamples, example } from '@entropic-mcp/test-kit/examples-build';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostCandidates } from '../src/addon/find-host.js';
import { cancelFrame, FrameReader, Op, requestText, Status } from '../src/wire/frames.js';
import { callerMeta } from '../src/wire/voice.js';

const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
const haveValgrind = valgrind.status === 0;
if (!haveValgrind) {
  console.warn(
    'leak check skipped: valgrind is not installed (apt-get install valgrind; .ci/run installs it)',
  );
}

interface Frame {
  id: number;
  status: number;
  text: string;
}

/**
 * Runs the host under valgrind, sends `requests`, closes stdin; resolves with the frames, exit code and log.
 * `cancelFirst` call ids go to the host's cancel pipe (fd 3) at once; `cancelOn` names a call to cancel when
 * a frame of that call's first arrives.
 */
function underValgrind(plugin: string, requests: string[], cancelFirst: number[] = [], cancelOn?: number) {
  const host = hostCandidates().find((p) => spawnSync('test', ['-x', p]).status === 0);
  if (host === undefined) throw new Error('entropic_plugin_host is not built');
  const args = ['--leak-check=full', '--errors-for-leak-kinds=definite', '--error-exitcode=99', host, plugin];
  const env = { ...process.env, ENTROPIC_HOST_CANCEL_FD: '3' };
  const child = spawn('valgrind', args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env });
  const cancelPipe = child.stdio[3] as Writable;
  const frames: Frame[] = [];
  for (const id of cancelFirst) cancelPipe.write(cancelFrame(id));
  const reader = new FrameReader((id, status, buf, start, end) => {
    if (id === cancelOn && !frames.some((f) => f.id === id)) cancelPipe.write(cancelFrame(id));
    frames.push({ id, status, text: buf.toString('utf8', start, end) });
  });
  child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stdin.end(requests.join(''));
  return new Promise<{ frames: Frame[]; code: number | null; log: string }>((resolve) => {
    child.on('close', (code) => resolve({ frames, code, log }));
  });
}

describe.runIf(haveValgrind)('plugin host under valgrind', () => {
  beforeAll(() => buildExamples());

  it('serves the echo plugin with zero bytes definitely lost', async () => {
    const requests = [requestText(1, Op.listTools)];
    for (let i = 2; i < 40; i++)
      requests.push(requestText(i, Op.execute, 'echo', JSON.stringify({ text: `n${i}` })));
    requests.push(requestText(40, Op.configure, '{}'), requestText(41, Op.setWorkingDir, '/tmp'));
    requests.push(requestText(42, Op.execute, 'stop', '{"reason":"done"}'), requestText(43, Op.close));
    const { frames, code, log } = await underValgrind(example('echo'), requests);
    expect(frames[0]).toMatchObject({ id: 0, status: Status.ready });
    expect(frames.map((f) => f.id)).toEqual([0, ...Array.from({ length: 43 }, (_, i) => i + 1)]);
    // The echo answer is plain: its frame holds the result text alone.
    expect(frames[5]).toMatchObject({ status: Status.plain, text: 'n5' });
    expect(JSON.parse(frames[42]!.text)).toMatchObject({ result: 'done' });
    expect(log).toMatch(/definitely lost: 0 bytes|no leaks are possible/);
    expect(log).toMatch(/ERROR SUMMARY: 0 errors/);
    expect(code).toBe(0);
  });

  it('leaks nothing when it refuses a plugin at load', async () => {
    const { frames, code, log } = await underValgrind(fixture('missing-symbols'), []);
    expect(frames[0]).toMatchObject({ id: 0, status: Status.failed });
    expect(log).toMatch(/definitely lost: 0 bytes|no leaks are possible/);
    expect(code).toBe(3);
  });

  it('leaks nothing through the plugin context: progress, logs, structured results, the caller, cancellations', async () => {
    const meta = callerMeta(
      {
        subject: 'ada',
        scopes: ['a', 'b'],
        protocolVersion: '2025-11-25',
        requestId: 7,
      },
      1,
    ); // one log a second: the second log of a call is dropped, and a warning says so
    const count = (id: number, to: number, delay: number) =>
      requestText(id, Op.executeWithContext, 'count', JSON.stringify({ to, delay_ms: delay }), meta);
    const requests = [
      count(1, 5, 1), // runs to its end: five progress frames (some merged), two logs, a structured result
      count(2, 100_000, 2), // cancelled while it runs (at its first frame)
      count(3, 5, 1), // cancelled before it starts: skipped
      requestText(4, Op.close),
    ];
    const { frames, code, log } = await underValgrind(example('slow'), requests, [3], 2);
    expect(frames[0]).toMatchObject({ id: 0, status: Status.ready });
    const answers = frames.filter((f) => f.status !== Status.progress && f.status !== Status.log);
    expect(answers.map((f) => [f.id, f.status])).toEqual([
      [0, Status.ready],
      [1, Status.structured],
      [1, Status.plain],
      [2, Status.structured],
      [2, Status.plain],
      [3, Status.null],
      [4, Status.code],
    ]);
    expect(answers[2]!.text).toBe('5');
    expect(Number(answers[4]!.text)).toBeLessThan(100_000);
    expect(JSON.parse(answers[3]!.text)).toMatchObject({ cancelled: true });
    expect(frames.filter((f) => f.id === 1 && f.status === Status.progress).length).toBeGreaterThanOrEqual(1);
    expect(log).toMatch(/definitely lost: 0 bytes|no leaks are possible/);
    expect(log).toMatch(/ERROR SUMMARY: 0 errors/);
    expect(code).toBe(0);
  }, 60_000);

  it("stays memory-safe while a plugin thread calls back through a returned call's context", async () => {
    // The lingering fixture's thread keeps calling back through the context of call 1 (kept pointer and copy) all
    // through 150 quick calls (past the contexts' quarantine: returned ones get reused), a call it floods, its
    // report, and the close (the plugin's destroy stops the thread). No late frame may carry another call's id.
    const meta = (subject: string) => callerMeta({ subject, requestId: 1 }, 0);
    const call = (id: number, tool: string, subject: string) =>
      requestText(id, Op.executeWithContext, tool, '{}', meta(subject));
    const requests = [call(1, 'start', 'alice')];
    for (let id = 2; id <= 151; id++) requests.push(call(id, 'quick', 'bob'));
    requests.push(call(152, 'victim', 'bob'), call(153, 'report', 'bob'), requestText(154, Op.close));
    const { frames, code, log } = await underValgrind(fixture('lingering'), requests);
    const spoken = [Status.progress, Status.log, Status.structured] as number[];
    expect(frames.filter((f) => spoken.includes(f.status) && f.id !== 1)).toEqual([]);
    const answer = (id: number) => frames.find((f) => f.id === id && !spoken.includes(f.status));
    // The result text: a plain answer's frame holds it alone, others hold the plugin's envelope.
    const result = (id: number) => {
      const frame = answer(id);
      if (frame?.status === Status.plain) return frame.text;
      return (JSON.parse(frame?.text ?? '{}') as { result?: string }).result;
    };
    expect(result(152)).toBe('victim bob');
    const report = JSON.parse(result(153) ?? '{}') as Record<string, unknown>;
    expect(report).toMatchObject({ accepted: 0, cancelled: 1 });
    expect(report.rounds).toBeGreaterThanOrEqual(40);
    expect(answer(154)).toMatchObject({ status: Status.code });
    expect(log).toMatch(/definitely lost: 0 bytes|no leaks are possible/);
    expect(log).toMatch(/ERROR SUMMARY: 0 errors/);
    expect(code).toBe(0);
  }, 120_000);
});
