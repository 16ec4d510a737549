/** The rule wording lives in lib/routing/rule-summary.ts: the Routing page, the version history and the API say the same. */
export { ruleConditionsText, ruleOutcomeText, ruleThreeDsText } from "@/lib/routing/rule-summary";
