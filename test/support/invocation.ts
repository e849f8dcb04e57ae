/** A stand-in for the invocation object Excel passes to a cancelable custom function. */
export function fakeInvocation(
  address = "Sheet1!A1",
): CustomFunctions.CancelableInvocation & { cancel(): void } {
  const invocation: CustomFunctions.CancelableInvocation & { cancel(): void } = {
    address,
    functionName: "TEST",
    cancel() {
      invocation.onCanceled?.();
    },
  };
  return invocation;
}
