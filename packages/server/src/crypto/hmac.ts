/** HMAC-SHA256 from node:crypto: the default MAC that seals `requestState` (see core/modern/sealer.ts). */

import { createHmac, randomBytes } from 'node:crypto';
import type { Mac } from '../core/modern/sealer.js';

/** A MAC over `key`; with no key, over 32 random bytes that live as long as this process. */
export function hmacSha256(key: string | Uint8Array | undefined): Mac {
  if (typeof key === 'string' && key.length < 16) {
    throw new TypeError(
      'ServerOptions.requestState.key must be at least 16 characters (32 random bytes are best)',
    );
  }
  const secret = key ?? randomBytes(32);
  return (data: string) => createHmac('sha256', secret).update(data).digest('base64url');
}
