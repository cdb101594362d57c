// Imported first by every module that loads Pact: its native core reports usage over the network
// unless told not to, and nothing in this project may reach the internet at run time. The npm
// scripts set the variable as well; this covers direct `vitest`/`tsx` runs.
process.env.PACT_DO_NOT_TRACK = 'true';
