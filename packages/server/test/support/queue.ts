/** An async FIFO of messages: push from a callback, await `next()` from a loop. */

import type { Message } from './peer.js';

export class MessageQueue {
  private readonly items: Message[] = [];
  private readonly takers: { resolve: (m: Message) => void; reject: (e: Error) => void }[] = [];
  private ended = false;

  push(message: Message): void {
    const taker = this.takers.shift();
    if (taker) taker.resolve(message);
    else this.items.push(message);
  }

  end(): void {
    this.ended = true;
    for (const taker of this.takers.splice(0)) taker.reject(new Error('closed'));
  }

  next(): Promise<Message> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    if (this.ended) return Promise.reject(new Error('closed'));
    return new Promise((resolve, reject) => this.takers.push({ resolve, reject }));
  }
}
