import { findOperation } from "../contract/operations";

/**
 * A request body field the sandbox expects under another name than the contract's: how a test (or a person
 * trying the connection check) meets a service whose field names changed. A client that sends the contract's
 * name then gets the 400 an unknown field gets; one that sends the new name is served as usual.
 */
export interface BodyFieldRename {
  readonly operationId: string;
  /** The contract's name. */
  readonly from: string;
  /** The name the sandbox expects instead. */
  readonly to: string;
}

const RENAME = /^([A-Za-z][\w]*):([\w[\]]+)=([\w[\]]+)$/;

/** "searchGeoBoundaries:query=q" (operation id of the contract, its body field, the new name). */
export function parseBodyFieldRename(text: string): BodyFieldRename {
  const match = RENAME.exec(text.trim());
  if (!match)
    throw new Error(
      `--rename-body-field must look like <operationId>:<field>=<new name>, e.g. searchGeoBoundaries:query=q; got "${text}"`,
    );
  const [, operationId = "", from = "", to = ""] = match;
  if (!findOperation(operationId).requestBody)
    throw new Error(`--rename-body-field: operation ${operationId} takes no request body`);
  if (from === to) throw new Error(`--rename-body-field: ${from} is renamed to itself`);
  return { operationId, from, to };
}

export type RenamedBody = { ok: true; body: unknown } | { ok: false; message: string };

/** The body under the contract's names, or the message of the 400 when the client used a renamed field. */
export function bodyUnderContractNames(
  operationId: string,
  body: unknown,
  renames: readonly BodyFieldRename[],
): RenamedBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: true, body };
  let named = body as Record<string, unknown>;
  for (const rename of renames) {
    if (rename.operationId !== operationId) continue;
    if (rename.from in named) return { ok: false, message: `Unknown parameter: ${rename.from}` };
    if (rename.to in named) {
      const { [rename.to]: value, ...rest } = named;
      named = { ...rest, [rename.from]: value };
    }
  }
  return { ok: true, body: named };
}
