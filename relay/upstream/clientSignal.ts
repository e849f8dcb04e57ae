import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";

/**
 * Whether the person who asked is still there. A request whose client has disconnected should leave the team
 * gate without spending the budget, and its upstream call should stop: nobody will read the answer.
 */
const clientSignals = new AsyncLocalStorage<AbortSignal>();

/** A signal that fires when the client goes away before its answer has been sent. */
export function signalOfClient(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  request.raw.once("aborted", () => controller.abort());
  return controller.signal;
}

/** The signal of the client of the request being handled here, if any. */
export function currentClientSignal(): AbortSignal | undefined {
  return clientSignals.getStore();
}

/**
 * An `onRoute` hook: every route's handler runs with its client's signal at hand (`currentClientSignal`), so
 * that the upstream calls it makes, however deep, stop when the client goes.
 */
export function withClientSignal(route: RouteOptions): void {
  const handler = route.handler;
  route.handler = function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    return clientSignals.run(signalOfClient(request, reply), () =>
      handler.call(this as never, request, reply),
    );
  };
}
