/**
 * The Node-only entry of @idempotency/lessons: starting PGlite from the prepared image on disk,
 * running the lesson on a real PostgreSQL server, and the two-connection races only a server shows.
 */
export { pgliteFromImage } from './pglite-node.js';
export { postgresOpener, PostgresLessonDatabase, type PostgresOptions } from './postgres-database.js';
export { runRaces, type RaceResult, type WorkerRaceResult } from './race.js';
export { raceExercise, type ExerciseRace, type ExerciseRaceResult } from './exercise-race.js';
export { builtLessonFile, lessonFolder, packageRoot, pgliteImageFile } from './paths.js';
