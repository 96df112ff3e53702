/** Whether an environment variable marks a CI run (Ink then draws no live region, and colours change). */
export function isCiMarker(name: string): boolean {
  return name === "CI" || name === "CONTINUOUS_INTEGRATION" || name.startsWith("CI_");
}
