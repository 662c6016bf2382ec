/** A serve deployment that a test file runs the same cases against, once per kind (one process, a cluster). */
import { afterAll, beforeAll } from 'vitest';

export interface Deployment {
  /** The MCP endpoint clients are sent to. */
  readonly endpoint: string;
  stop(): Promise<unknown>;
}

/**
 * Starts `deploy` before the tests of the enclosing `describe` and stops it after them; `endpoint` of the
 * returned object is the deployment's once it is up.
 */
export function useDeployment(deploy: () => Promise<Deployment>): { readonly endpoint: string } {
  let deployment: Deployment | undefined;
  beforeAll(async () => {
    deployment = await deploy();
  }, 120_000);
  afterAll(async () => {
    await deployment?.stop();
  });
  return {
    get endpoint(): string {
      if (deployment === undefined) throw new Error('the deployment did not start');
      return deployment.endpoint;
    },
  };
}
