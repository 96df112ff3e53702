/** conch's version, kept in step with package.json. */
export const CONCH_VERSION = "0.1.0";
