/** This build's version, as `app:info` and a remote run's registration report it. */
export const TETHER_VERSION = '0.1.0';
