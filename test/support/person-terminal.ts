import { isCiMarker } from "./ci-markers.js";

// In-process tests render Ink as a person's terminal gets it. Ink reads CI markers once, when it
// loads, and under CI draws no live region at all (only the final frame at unmount): a test that
// reads the screen back would then check a screen no person sees, and fail only in CI.
for (const name of Object.keys(process.env)) if (isCiMarker(name)) delete process.env[name];
