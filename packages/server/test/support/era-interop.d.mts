// Types of era-interop.mjs.
import type { Transport } from '@modelcontextprotocol/client';

export const MODERN: '2026-07-28';
export const LEGACY: '2025-11-25';

export type EraMode = 'auto' | 'pin' | 'legacy';

export interface EraTarget {
  name: string;
  /** A fresh, unstarted client transport to the target. */
  transport(): Transport | Promise<Transport>;
  /** The tool the "calls one" case calls and the text it must answer. Default: era_echo. */
  call?: { name: string; arguments: Record<string, unknown>; text: string };
  /** Modes that cannot pass yet, each with the reason (shown in the skipped suite's name). */
  pending?: Partial<Record<EraMode, string>>;
}

/** The era interop cases for each version-negotiation mode, against `target`. */
export function runEraInterop(target: EraTarget): void;
