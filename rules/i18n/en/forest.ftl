# Forest Showdown: what the referee says (rules/src/forest/news.rs).

seat = Seat { $n } ({ $name })
dealt = You were dealt: { $cards }
round-dealt = Round { $n }: the cards are dealt.
short-hand = One card fewer, +{ $bonus } energy this round: { $names }.
turn-opening = { $who }'s turn: it opens with a showdown.
turn = { $who }'s turn.
showdown-asked = { $asker } asks { $target } for a showdown.
card-laid = You lay down { $card } for the showdown.
card-chosen = { $who } has chosen a card.
takes = { $who } takes { $card }.
stand-off = Stand-off: both keep their cards.
showdown = Showdown: { $asker } plays { $asker-card }, { $target } plays { $target-card }. { $result }
challenge = { $challenger } challenges { $target }: "I want your { $named }, and I'm taking it with my { $with }." { $result }
challenge-right = Right: { $challenger } takes { $named } and goes again.
challenge-wrong = Wrong: { $challenger } gives { $with } to { $target }; the turn is over.
round-time-up = Time! The turn in progress finishes, then the round ends.
timed-out-turn-over = { $who } ran out of time; the turn is over.
timed-out-showdown = { $who } ran out of time; the table asks for a showdown for them.
timed-out-random-card = { $who } ran out of time; a random card is played.
wins = { $who } wins { $what } with { $top }.
share = { $who } share { $what }, with { $top }.
the-round = the round
the-game = the game
energy = { $who } { $score }
round-over = Round { $n } is over. Energy: { $energy }. { $won }
game-over = The game is over. { $won }
