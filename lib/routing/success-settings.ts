import { z } from "zod";

/**
 * The merchant's success-rate ordering settings: one schema for the Routing page's form,
 * its server action, `PATCH /api/routing/settings` and the OpenAPI document. Whole numbers; the
 * form's text inputs send digits as text, which is read as the number it spells.
 */
export const SUCCESS_WINDOW_HOURS = { min: 1, max: 168 } as const;
const SUCCESS_MIN_SAMPLE = { min: 1, max: 10_000 } as const;
const SUCCESS_EXPLORATION_PERCENT = { min: 0, max: 20 } as const;

const whole = (what: string, bounds: { min: number; max: number }, unit: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: `${what} must be a whole number from ${bounds.min} to ${bounds.max}${unit}` })
      .int({ error: `${what} must be a whole number from ${bounds.min} to ${bounds.max}${unit}` })
      .min(bounds.min, `${what} must be at least ${bounds.min}${unit}`)
      .max(bounds.max, `${what} must be at most ${bounds.max}${unit}`),
  );

export const successSettingsSchema = z.strictObject({
  window_hours: whole("The window", SUCCESS_WINDOW_HOURS, " hours").meta({
    description: "The sliding window success rates are counted over, in hours (1 to 168, 7 days); 24 unless changed",
    type: "integer",
  }),
  min_sample: whole("The minimum sample", SUCCESS_MIN_SAMPLE, " attempts").meta({
    description: "Attempts within the window before a connection's rate is trusted; fewer keep its listed place. 20 unless changed",
    type: "integer",
  }),
  exploration_percent: whole("The exploration share", SUCCESS_EXPLORATION_PERCENT, "%").meta({
    description: "Percent of invoices (0 to 20) that try another connection first, so a recovered provider gets traffic back; 5 unless changed",
    type: "integer",
  }),
});

export type SuccessSettingsAttributes = z.output<typeof successSettingsSchema>;
