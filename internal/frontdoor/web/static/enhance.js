// enhance.js marks the page as scripted, so styles may tell a page that
// runs its modules from one that does not; it proves the nonce's path.
document.documentElement.classList.add("js");
