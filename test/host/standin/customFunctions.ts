/**
 * The `CustomFunctions` global of the stand-in: `associate` hands each function to the host page's
 * calculator; `Error` and `ErrorCode` are what the functions reject with or put in array cells.
 */
import type { CustomFunctionImplementation, HostBridge } from "./hostBridge";

/** The codes the add-in uses (Excel shows a custom message only for these two). */
export const ErrorCode = { invalidValue: "#VALUE!", notAvailable: "#N/A" } as const;

export class CustomFunctionsError extends Error {
  static readonly officeName = "CustomFunctions.Error";

  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message);
    this.name = "CustomFunctions.Error";
  }
}

/**
 * What every call's invocation carries: `address` is the calling cell's, given only to functions whose metadata
 * says `requiresAddress` (a streaming function: `requiresStreamAddress`), undefined otherwise, as in Excel.
 * `isInValuePreview` is true when the call only previews part of a formula being edited (formula value
 * preview, CustomFunctionsRuntime 1.5), false otherwise; a host without 1.5 gives nothing.
 */
export class StandInInvocationBase {
  static readonly officeName: string = "CustomFunctions.Invocation";
  readonly #address: string | undefined;
  readonly #isInValuePreview: boolean | undefined;

  constructor(address: string | undefined, isInValuePreview?: boolean) {
    this.#address = address;
    this.#isInValuePreview = isInValuePreview;
  }

  get address(): string | undefined {
    return this.#address;
  }

  get isInValuePreview(): boolean | undefined {
    return this.#isInValuePreview;
  }
}

/**
 * The last argument of every call. The host calls `onCanceled` when it abandons the call (the inputs
 * changed, the formula went, or a recalculation started over). Only the members the add-in uses: it reads
 * no function name.
 */
export class StandInInvocation extends StandInInvocationBase {
  static override readonly officeName = "CustomFunctions.CancelableInvocation";
  #onCanceled: (() => void) | undefined;

  get onCanceled(): (() => void) | undefined {
    return this.#onCanceled;
  }
  set onCanceled(handler: (() => void) | undefined) {
    this.#onCanceled = handler;
  }
}

/**
 * The last argument of a streaming function (`@streaming`): `setResult` shows a new value in the cell each time
 * it is called (a wait's progress, then the table); `onCanceled` as for a cancelable call.
 */
export class StandInStreamingInvocation extends StandInInvocationBase {
  static override readonly officeName = "CustomFunctions.StreamingInvocation";
  #onCanceled: (() => void) | undefined;

  constructor(
    address: string | undefined,
    isInValuePreview: boolean | undefined,
    private readonly show: (value: unknown) => void,
  ) {
    super(address, isInValuePreview);
  }

  /** The calling cell's, for a function whose metadata says `requiresStreamAddress`. */
  override get address(): string | undefined {
    return super.address;
  }

  setResult(value: unknown): void {
    this.show(value);
  }

  get onCanceled(): (() => void) | undefined {
    return this.#onCanceled;
  }
  set onCanceled(handler: (() => void) | undefined) {
    this.#onCanceled = handler;
  }
}

export function customFunctionsNamespace(host: HostBridge) {
  return {
    associate(id: string, implementation: CustomFunctionImplementation): void {
      host.registerFunction(id, implementation);
    },
    Error: CustomFunctionsError,
    ErrorCode,
  };
}
