/**
 * The two native ends of the plugin wire, driven directly with request text: the host process (over its pipes)
 * and the in-process addon's instance thread. Each collects the answer frames it gets back.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Addon } from '../../src/addon/binding.js';
import { hostCandidates } from '../../src/addon/find-host.js';
import { FrameReader } from '../../src/wire/frames.js';
import { LOADER_ROOT } from './inprocess-helpers.js';

export interface Frame {
  id: number;
  status: number;
  payload: Buffer;
}

export interface WireEndpoint {
  /** Sends request text (whole requests for the addon; any slicing for the host). */
  send(text: string | Buffer): void;
  /** Resolves once `count` frames came back in all (the ready frame included). */
  frames(count: number): Promise<Frame[]>;
  /** For the host: how it ended, once stdin is closed. */
  end(): Promise<{ code: number | null; stderr: string }>;
}

function collector() {
  const frames: Frame[] = [];
  let wanted = Number.POSITIVE_INFINITY;
  let wake: (() => void) | undefined;
  const reader = new FrameReader((id, status, buf, start, end) => {
    frames.push({ id, status, payload: Buffer.from(buf.subarray(start, end)) });
    if (frames.length >= wanted) wake?.();
  });
  const until = (count: number) =>
    new Promise<Frame[]>((resolve) => {
      wanted = count;
      wake = () => resolve(frames.slice());
      if (frames.length >= count) wake();
    });
  return { reader, until };
}

export function hostEndpoint(plugin: string): WireEndpoint {
  const host = hostCandidates().find((p) => spawnSync('test', ['-x', p]).status === 0);
  if (host === undefined) throw new Error('entropic_plugin_host is not built');
  const child = spawn(host, [plugin], { stdio: ['pipe', 'pipe', 'pipe'] });
  const { reader, until } = collector();
  child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    send: (text) => child.stdin.write(text),
    frames: until,
    end: async () => {
      child.stdin.end();
      return { code: await exited, stderr };
    },
  };
}

export function addonEndpoint(plugin: string): WireEndpoint & { shutdown(): void } {
  const require = createRequire(import.meta.url);
  const addon = require(join(LOADER_ROOT, 'build', 'Release', 'entropic_loader.node')) as Addon;
  const { reader, until } = collector();
  const native = new addon.NativePlugin(plugin, (frames) => reader.push(frames));
  native.ref();
  return {
    send: (text) => {
      if (!native.submit(text.toString())) throw new Error('the instance refused the requests');
    },
    frames: until,
    end: async () => {
      native.shutdown();
      return { code: 0, stderr: '' };
    },
    shutdown: () => native.shutdown(),
  };
}
