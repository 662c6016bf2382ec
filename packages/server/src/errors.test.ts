// Every error the package throws on purpose shares one base, and names itself by a stable `code`.
import { describe, expect, it } from 'vitest';
import { JwksRefused } from './auth/jwks.js';
import { LocalError, McpError, McpServerError, ToolError } from './core/errors.js';
import { InputRequired } from './core/modern/input.js';
import { BodyConsumedError, BodyTooLargeError } from './http/seam/body-errors.js';
import { SharedStateUnavailable } from './http/state/shared-state.js';

describe('McpServerError', () => {
  it('is the base of every error, each with its stable code and name', () => {
    const cases: [McpServerError, string | number, string][] = [
      [new McpError(-32602, 'Invalid params: x'), -32602, 'McpError'],
      [new LocalError('DUPLICATE_TOOL', 'tool "a" is already registered'), 'DUPLICATE_TOOL', 'LocalError'],
      [new ToolError('the disk is full'), 'TOOL_ERROR', 'ToolError'],
      [
        new SharedStateUnavailable(new Error('ECONNREFUSED')),
        'SHARED_STATE_UNAVAILABLE',
        'SharedStateUnavailable',
      ],
      [new BodyTooLargeError(10), 'BODY_TOO_LARGE', 'BodyTooLargeError'],
      [new BodyConsumedError(), 'BODY_CONSUMED', 'BodyConsumedError'],
      [new JwksRefused('the JWKS is over 256 KiB'), 'JWKS_REFUSED', 'JwksRefused'],
      [new InputRequired(), 'INPUT_REQUIRED', 'InputRequired'],
    ];
    for (const [error, code, name] of cases) {
      expect(error).toBeInstanceOf(McpServerError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(code);
      expect(error.name).toBe(name);
    }
  });

  it('keeps messages, wire form and cause as before', () => {
    expect(new McpError(-32000, 'busy', { retryAfter: 5 }).toJSON()).toEqual({
      code: -32000,
      message: 'busy',
      data: { retryAfter: 5 },
    });
    expect(new ToolError().message).toBe('');
    const refused = Object.assign(new Error('OOM command not allowed'), { refused: true });
    const unavailable = new SharedStateUnavailable(refused);
    expect(unavailable.message).toBe(
      'Service Unavailable: shared session state cannot be written (OOM command not allowed)',
    );
    expect(unavailable.cause).toBe(refused);
  });
});
