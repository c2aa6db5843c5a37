// Centers for Disease Control and Prevention: adult obesity from the Behavioral Risk Factor Surveillance System.
// The code is the question id of CDC's "Nutrition, Physical Activity, and Obesity - BRFSS" data set (hn4x-zwk7):
// Q036 = "Percent of adults aged 18 years and older who have obesity". Offered per state; default California.
import type { SourceCatalog } from "./types";

export const cdcCatalog: SourceCatalog = {
  source: {
    slug: "cdc",
    name: "Centers for Disease Control and Prevention",
    provider: "U.S. Department of Health and Human Services",
    category: "health",
    docsUrl:
      "https://data.cdc.gov/Nutrition-Physical-Activity-and-Obesity/Nutrition-Physical-Activity-and-Obesity-Behavioral/hn4x-zwk7",
    attribution: "Source: Centers for Disease Control and Prevention, Behavioral Risk Factor Surveillance System.",
    license: "Public domain (U.S. government work)",
  },
  indicators: [
    {
      code: "Q036",
      name: "Adult Obesity Prevalence (BMI >= 30)",
      description:
        "Percent of adults aged 18 and over with obesity (body mass index of 30 or more, from self-reported height and " +
        "weight), Behavioral Risk Factor Surveillance System, by state. BRFSS question id Q036.",
      category: "health",
      subcategory: "obesity",
      unit: "percent",
      frequency: "annual",
      upIsGood: false,
      regionKinds: ["state"],
      defaultRegionCode: "06",
      meta: {
        per_region: true,
        upstream: {
          api: "cdc",
          dataset: "hn4x-zwk7",
          question_id: "Q036",
          endpoint: "https://data.cdc.gov/resource/hn4x-zwk7.json",
          location_column: "locationabbr",
        },
      },
    },
  ],
};
