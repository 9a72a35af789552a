# The table core's words: refusals every game shares.
no-unknown-seat = there is no seat { $seat } at this table
no-not-your-turn = it is not your turn
no-game-over = the game is over
no-offer-to-you = that player has made you no offer
no-offer-from-you = you have made that player no offer
