// What other features may use of the session.
// Only what the shell needs: what only the login page uses loads with it.
export { handleUnauthorized, loadUser, logout, session, signIn } from './store';
