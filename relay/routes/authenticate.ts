import type { FastifyReply, FastifyRequest } from "fastify";
import type { UserRecord, UserRecords } from "../store/relayStore";
import { userOfKey } from "../users/personalKeys";
import { sendRelayError } from "./replies";

declare module "fastify" {
  interface FastifyRequest {
    relayUser?: UserRecord;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Checks the personal key on every request (no session to outlive a revocation): the next request after
 * `users revoke` is refused. The answer says what to do, in the contract's 401 shape. A key checked earlier
 * in the same request (before its body was read) is not looked up again.
 */
export function keyChecker(users: UserRecords, options: { admin: boolean }) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.relayUser) {
      if (options.admin && !request.relayUser.admin)
        await sendRelayError(reply, 403, "Forbidden", "This page needs an admin key of the relay.");
      return;
    }
    const key = bearer(request);
    if (!key) {
      await sendRelayError(
        reply,
        401,
        "Unauthorized",
        "Sign in to the team relay with your personal key (Authorization: Bearer <key>).",
      );
      return;
    }
    const user = await userOfKey(users, key);
    if (!user) {
      await sendRelayError(
        reply,
        401,
        "Unauthorized",
        "The team relay does not accept this personal key: it was revoked or never issued. Ask your relay admin for a new key and sign in again.",
      );
      return;
    }
    if (options.admin && !user.admin) {
      await sendRelayError(reply, 403, "Forbidden", "This page needs an admin key of the relay.");
      return;
    }
    request.relayUser = user;
  };
}
