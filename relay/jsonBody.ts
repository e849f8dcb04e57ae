import type { FastifyInstance } from "fastify";

/**
 * Deepest nesting a request body may have. The contract's deepest body (explore markets with its filters) is
 * four levels; a body nested thousands deep is no request of the add-in's, and turning it back into text
 * would exhaust the stack.
 */
export const MAX_JSON_DEPTH = 32;

/** How deeply `text` nests arrays and objects, counted without parsing (so without recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return deepest;
}

class BodyTooDeep extends Error {
  readonly statusCode = 400;
  constructor(depth: number) {
    super(`The JSON body nests ${depth} levels deep; the relay accepts at most ${MAX_JSON_DEPTH}.`);
  }
}

/** JSON bodies as Fastify parses them (prototype poisoning refused), after a check of their depth: a 400 past it. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const depth = jsonDepth(body as string);
    if (depth > MAX_JSON_DEPTH) return done(new BodyTooDeep(depth), undefined);
    return parse(request, body as string, done);
  });
}
