import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * Fires when the client goes away before its answer has been sent. A request whose client has disconnected
     * should leave the team gate without spending the budget, and its upstream call should stop: nobody will
     * read the answer. Its handler hands it to the upstream calls it makes.
     */
    clientSignal?: AbortSignal;
  }
}

/** A signal that fires when the client goes away before its answer has been sent. */
export function signalOfClient(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  request.raw.once("aborted", () => controller.abort());
  return controller.signal;
}

/** An `onRoute` hook: every route's request carries its client's signal (`request.clientSignal`). */
export function withClientSignal(route: RouteOptions): void {
  const handler = route.handler;
  route.handler = function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    request.clientSignal = signalOfClient(request, reply);
    return handler.call(this as never, request, reply);
  };
}
