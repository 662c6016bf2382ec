/**
 * The request side of the fetch adapter: a web Request seen as the endpoint's request view. The
 * body stays in the Request until the endpoint reads it, under its cap, once the request passed
 * its checks.
 */

import { readCappedText } from '../auth/capped-body.js';
import { BodyTooLargeError } from '../http/seam/body-errors.js';
import type { HttpRequest, WebAuthRequest } from '../http/seam/view.js';

export class FetchRequest implements HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string> = {};
  readonly secure: boolean;
  readonly remoteAddress = undefined;
  readonly #request: Request;
  #native: WebAuthRequest | undefined;

  constructor(request: Request) {
    const url = new URL(request.url);
    this.#request = request;
    this.method = request.method.toUpperCase();
    this.url = `${url.pathname}${url.search}`;
    this.secure = url.protocol === 'https:';
    request.headers.forEach((value, name) => {
      this.headers[name] = value;
    });
    this.headers.host ??= url.host;
  }

  header(name: string): string | undefined {
    return this.headers[name];
  }

  /** The body as JSON; refused with BodyTooLargeError by its declared length or as soon as it grows past `limit`. */
  async readBody(limit: number): Promise<unknown> {
    const declared = this.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) throw new BodyTooLargeError(limit);
    return JSON.parse(await readCappedText(this.#request.body, limit, () => new BodyTooLargeError(limit)));
  }

  get native(): WebAuthRequest {
    this.#native ??= {
      method: this.method,
      url: this.url,
      headers: this.headers,
      socket: { encrypted: this.secure },
      request: this.#request,
    };
    return this.#native;
  }
}
