// The text a developer reads after `entropic-abi check`.
import type { CheckReport } from './types.js';

export function formatReport(report: CheckReport): string {
  const lines = report.notes.map((n) => `• ${n}`);
  for (const f of report.findings) lines.push('', `✖ [${f.rule}] ${f.message}`);
  lines.push(
    '',
    report.findings.length === 0
      ? 'entropic-abi check: OK'
      : `entropic-abi check: FAILED (${report.findings.length} problem${report.findings.length === 1 ? '' : 's'})`,
  );
  return lines.join('\n');
}
