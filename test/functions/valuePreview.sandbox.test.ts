/**
 * Formula value preview: Excel calls a custom function while a person selects part of a formula they are
 * editing, with `invocation.isInValuePreview` true (Microsoft's "Work with formula value preview mode in your
 * custom functions"). A preview answers from memory or shows #N/A "preview: runs when entered"; it never asks
 * the service, so it spends neither the request limit nor the bulk export quota, and submits no export job.
 * Counted at the sandbox.
 */
import "fake-indexeddb/auto";
import { PREVIEW_NOT_RUN } from "../../src/functions/cellCall";
import { history } from "../../src/functions/historyFunctions";
import { properties, property } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

const JOBS = "/v1/bulk_api/jobs";

let world: SignedInSandbox;

beforeAll(async () => {
  world = await startSignedInSandbox("demo-pro");
});

afterAll(() => world?.close());

const requests = () => world.sandbox.counters.total();

/** The invocation Excel gives a call made for a formula value preview. */
function previewInvocation() {
  return Object.assign(fakeInvocation(), { isInValuePreview: true as unknown as string });
}

/** What a call's promise ended with: its value, or the cell error it rejected with. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    (value) => value,
    (error: unknown) => error,
  );

/** An Austin MSA's id, as the sandbox has it. */
function austin(): number {
  const found = world.sandbox
    .dataset()
    .geography.boundaries.find(
      (boundary) => boundary.geoType === "MSA" && boundary.name.startsWith("Austin"),
    );
  return Number(found?.id);
}

test("a preview of RENT.PROPERTIES asks nothing and says it runs when entered; entered, it asks", async () => {
  const area = [[austin()]];
  const before = requests();
  const previewed = (await outcome(
    properties(area, [["property_name"]], [["max_results=5"]], null, previewInvocation()),
  )) as { code?: string; message?: string };
  expect(previewed).toBeInstanceOf(CustomFunctions.Error);
  expect(previewed.code).toBe("#N/A");
  expect(previewed.message).toBe(PREVIEW_NOT_RUN);
  expect(requests()).toBe(before);

  const entered = await properties(area, [["property_name"]], [["max_results=5"]], null, fakeInvocation());
  expect(entered.length).toBeGreaterThan(1);
  expect(requests()).toBeGreaterThan(before);
});

test("a preview shows what memory holds, and asks nothing for what it does not", async () => {
  const [kept, notKept] = [7, 8].map((index) =>
    Number((world.sandbox.dataset().properties[index] as { id: number }).id),
  );
  const entered = await property([[kept]], [["property_name"]], fakeInvocation());
  const before = requests();
  expect(await property([[kept]], [["property_name"]], previewInvocation())).toEqual(entered);
  const previewed = (await outcome(property([[notKept]], [["property_name"]], previewInvocation()))) as {
    message?: string;
  };
  expect(previewed.message).toBe(PREVIEW_NOT_RUN);
  // A batch window later: nothing went out for either.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(requests()).toBe(before);
});

test("a preview of RENT.HISTORY submits no export job; entered, it submits one", async () => {
  const id = (world.sandbox.dataset().properties[3] as { id: number }).id;
  const args: [unknown[][], unknown[][], unknown, unknown, unknown, unknown, unknown, unknown] = [
    [[id]],
    [["avg_rent"]],
    "2026-01-05",
    "2026-01-09",
    null,
    null,
    null,
    null,
  ];
  const shown: unknown[] = [];
  const streaming = (preview: boolean) => {
    const invocation = Object.assign(preview ? previewInvocation() : fakeInvocation(), {
      setResult: (value: unknown) => shown.push(value),
    });
    history(...args, invocation);
    return invocation;
  };
  const before = requests();
  streaming(true);
  expect(shown).toHaveLength(1);
  expect(shown[0]).toBeInstanceOf(CustomFunctions.Error);
  expect((shown[0] as Error).message).toBe(PREVIEW_NOT_RUN);
  // Nothing left waits to go out: a batch window later, still nothing was asked.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(requests()).toBe(before);

  const submitted = world.sandbox.counters.get(JOBS);
  const entered = streaming(false);
  for (let poll = 0; poll < 200 && world.sandbox.counters.get(JOBS) === submitted; poll++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  entered.cancel();
  expect(world.sandbox.counters.get(JOBS)).toBe(submitted + 1);
});
