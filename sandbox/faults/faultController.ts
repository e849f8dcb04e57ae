import { Random } from "../data/random";
import { NO_FAULTS, RATE_LIMIT_HEADER_FORMS, type FaultSettings } from "./faultSettings";

export type FaultDecision = "drop" | "error" | "rate-limit" | "pass";

/**
 * The faults currently injected into API requests. The shares are drawn from a seeded generator,
 * so a run with the same seed and the same request sequence fails the same requests.
 */
export class FaultController {
  private current: FaultSettings;
  private random: Random;

  constructor(
    initial: Partial<FaultSettings>,
    private readonly seed: number,
  ) {
    this.current = FaultController.checked({ ...NO_FAULTS, ...initial });
    this.random = new Random(seed);
  }

  settings(): FaultSettings {
    return { ...this.current };
  }

  /** Changes some settings; throws on out-of-range values. */
  update(changes: Partial<FaultSettings>): FaultSettings {
    this.current = FaultController.checked({ ...this.current, ...changes });
    return this.settings();
  }

  /** Back to no faults, with the generator restarted. */
  reset(): FaultSettings {
    this.current = { ...NO_FAULTS };
    this.random = new Random(this.seed);
    return this.settings();
  }

  /** Restarts the generator with another seed: a different fault stream, as reproducible as the first. */
  reseed(seed: number): void {
    this.random = new Random(seed);
  }

  /** What happens to the next API request (consumes one request of a 429 burst). */
  decide(): FaultDecision {
    if (this.current.dropRate > 0 && this.random.next() < this.current.dropRate) return "drop";
    if (this.current.errorRate > 0 && this.random.next() < this.current.errorRate) return "error";
    if (this.current.rateLimitBurst > 0) {
      this.current.rateLimitBurst -= 1;
      return "rate-limit";
    }
    return "pass";
  }

  private static checked(settings: FaultSettings): FaultSettings {
    const share = (name: "errorRate" | "dropRate") => {
      const value = settings[name];
      if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1`);
    };
    share("errorRate");
    share("dropRate");
    if (!(settings.latencyMs >= 0 && settings.latencyMs <= 60_000))
      throw new RangeError("latencyMs must be between 0 and 60000");
    const replaced = settings.replacedBodies as unknown;
    if (
      typeof replaced !== "object" ||
      replaced === null ||
      Object.values(replaced).some((body) => typeof body !== "string")
    )
      throw new RangeError("replacedBodies must map operation ids to body text");
    for (const name of ["emptyForbiddenBodies", "omitTotalPages"] as const) {
      if (typeof settings[name] !== "boolean") throw new RangeError(`${name} must be true or false`);
    }
    if (!RATE_LIMIT_HEADER_FORMS.includes(settings.rateLimitHeaders)) {
      throw new RangeError(`rateLimitHeaders must be one of ${RATE_LIMIT_HEADER_FORMS.join(", ")}`);
    }
    if (!(Number.isInteger(settings.rateLimitBurst) && settings.rateLimitBurst >= 0)) {
      throw new RangeError("rateLimitBurst must be a whole number >= 0");
    }
    return settings;
  }
}
