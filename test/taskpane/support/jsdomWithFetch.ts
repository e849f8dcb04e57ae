/**
 * jsdom for the pane's page tests, plus what the add-in's runtime (a browser) has and jsdom lacks: fetch and
 * its classes, streams, text codecs, structuredClone, WebCrypto. Node's own implementations are passed in, with
 * Node's AbortController, because Node's fetch accepts only its own AbortSignal.
 */
import { webcrypto } from "node:crypto";
import { TestEnvironment } from "jest-environment-jsdom";

export default class JsdomWithFetch extends TestEnvironment {
  constructor(...args: ConstructorParameters<typeof TestEnvironment>) {
    super(...args);
    Object.assign(this.global, {
      fetch,
      Request,
      Response,
      Headers,
      ReadableStream,
      TextEncoder,
      TextDecoder,
      structuredClone,
      AbortController,
      AbortSignal,
    });
    // jsdom's own crypto has getRandomValues only, and Object.assign does not replace it: define it outright.
    Object.defineProperty(this.global, "crypto", { value: webcrypto, configurable: true });
  }
}
