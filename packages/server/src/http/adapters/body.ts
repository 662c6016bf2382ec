/** Reading a request body under a size cap: from the stream, or as a framework already parsed it. */

import type { IncomingMessage } from 'node:http';
import { BodyConsumedError, BodyTooLargeError } from '../seam/body-errors.js';

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The parsed JSON body of a POST. A body a framework already read (express.json() and the like) is
 * taken from `req.body`: a parsed value, a string or bytes. Otherwise the stream is read. Every form
 * is held to `limit`: a declared `Content-Length`
 * over it is refused first, then the text itself. Throws BodyTooLargeError, BodyConsumedError, or
 * the SyntaxError of JSON.parse.
 */
export async function readMessage(req: IncomingMessage, limit: number): Promise<unknown> {
  const given = (req as { body?: unknown }).body;
  if (given === undefined || given === null) {
    if (req.readableEnded === true) throw new BodyConsumedError();
    return JSON.parse(await readBody(req, limit));
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw new BodyTooLargeError(limit);
  if (typeof given === 'string') {
    if (given.length > limit && encoder.encode(given).byteLength > limit) throw new BodyTooLargeError(limit);
    return JSON.parse(given);
  }
  if (given instanceof Uint8Array) {
    if (given.byteLength > limit) throw new BodyTooLargeError(limit);
    return JSON.parse(utf8.decode(given));
  }
  // A parsed value. A framework that filled req.body without reading the stream (a default `{}`
  // for a content type it does not parse) left the body to be read here.
  if (req.readableEnded === false && isEmptyObject(given)) return JSON.parse(await readBody(req, limit));
  return given;
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/**
 * Resolve with the body as text. A declared `Content-Length` over the cap is refused before a
 * byte is read; a body that grows past it while streaming is refused as soon as it does.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (size > limit) return;
      resolve(
        chunks.length === 1
          ? (chunks[0] as Buffer).toString('utf8')
          : Buffer.concat(chunks, size).toString('utf8'),
      );
    });
    req.once('error', reject);
  });
}
