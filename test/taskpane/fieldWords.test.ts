import { meaningOf, unitOf } from "../../src/taskpane/insert/fieldWords";

describe("a field described from its contract name and type", () => {
  it("reads the name's abbreviations as words, periods set off at the end", () => {
    expect(meaningOf("rent_1_bed_psf_avg_t30")).toBe("Rent 1-bedroom per sq ft average, last 30 days");
    expect(meaningOf("ner_0_bed_avg_t30")).toBe("Net effective rent studio average, last 30 days");
    expect(meaningOf("ner_psf_p88_t30")).toBe("Net effective rent per sq ft 88th percentile, last 30 days");
    expect(meaningOf("amenity_count_p50")).toBe("Amenity count median");
    expect(meaningOf("population_20_29")).toBe("Population aged 20-29");
    expect(meaningOf("population_55_up")).toBe("Population aged 55 and over");
    expect(meaningOf("leased_unit_count_total_mtd")).toBe("Leased unit count total, month to date");
  });

  it("reads a bedroom count only where a single digit comes before bed", () => {
    expect(meaningOf("ownership_company_1_name")).toBe("Ownership company 1 name");
    expect(meaningOf("floor_plans_by_bed")).toBe("Floor plans by bed");
    expect(meaningOf("population_growth_last_5_years_20_29")).toBe(
      "Population growth last 5 years aged 20-29",
    );
  });

  it("gives the unit of the kind that formats the field's cells", () => {
    expect(unitOf("asking_rent_0_bed", "number")).toBe("dollars");
    expect(unitOf("asking_rent_psf_0_bed", "number")).toBe("$ per sq ft");
    expect(unitOf("leased_percent", "number")).toBe("% (a fraction: 0.952 shows 95.2 %)");
    expect(unitOf("concession_percent_0_bed", "number")).toBe("% (a fraction: 0.952 shows 95.2 %)");
    expect(unitOf("existing_unit_count_total", "number")).toBe("count");
    expect(unitOf("year_renovated", "integer")).toBe("year");
    expect(unitOf("bike_score_avg", "number")).toBe("score");
    expect(unitOf("population_total", "number")).toBe("count");
  });

  it("keeps text as text whatever words its name has, and dates as dates", () => {
    expect(unitOf("last_sale_price_status", "string")).toBe("text");
    expect(unitOf("owned_since_date", "string")).toBe("date");
    expect(unitOf("collected_at", "string")).toBe("date");
  });
});
