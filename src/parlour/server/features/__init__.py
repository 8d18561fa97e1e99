"""The features: each a router and its logic (lobby, play, socket, accounts, chat, ratings,
timers, rematch, my games, quick play, admin, safety, the client's extras). They reach the
tables through the authority, the database through its runner, and react to the authority's
events rather than looking for changes."""
