# Crueler World: what the referee says (rules/src/crueler/news.rs).
# Seats are "Name (number)"; numbers are plain digits.

opening-boxes-filled = The life boxes are filled.
opening-boxes-hold = Each box holds { $life } life points.
opening = { $boxes } Round 1: between phases life may be given or exchanged; say when you are ready.
offer-made = { $from } offers you { $give } life for { $want } of yours.
offer-lapsed = Your offer to { $to } lapsed: life changed hands.
declined = { $by } turned down your offer.
card-given = { $from } gave a predator card to { $to }.
predation-opened = Round { $round }, predation phase { $phase } (N = { $n }). The boxes go to the referee. The die shows { $die }: { $first } is asked first.
passed = You do not prey.
starved = { $seat } starved: -{ $n }.
starved-out = { $seat } starved and is out.
second-asking = Everyone has been asked. Those who have not preyed are asked once more: refusing, unless preyed upon, means starving.
duel-began = A predator card is handed in: a duel begins.
preys-on-you = { $predator } preys on you: duel!
throw = { $a } against { $b }: { $result } ({ $won }-{ $lost }).
throw-predator = the predator wins the throw
throw-prey = the prey wins the throw
throw-tie = a tie: choose again
dice = Dice: predator { $a }, prey { $b }.
eliminated = A duel ended: a player is eliminated. (The referee names neither side.)
duel-won = { $predator } preyed on { $prey }: { $winner } won (+{ $n } / -{ $n }).
enters-reserve = { $loser } enters the Nature Reserve for this round.
phase-over = The predation phase is over; the boxes are returned.
round-begins = Round { $round } begins.
round-begins-no-reserve = Round { $round } begins: the Nature Reserve is gone.
box-life = { $seat } { $life }
box-out = { $seat } out
game-over = The game is over. Boxes opened: { $boxes }
interlude-time-up = Time is up for the interlude: unanswered offers lapse.
offer-time-up = Time is up: the life offer between you lapsed.
ask-time-up = Time is up: you do not prey.
beast-drawn = Time is up: the referee draws { $beast } for you.
beast-elephant = Elephant
beast-tiger = Tiger
beast-rat = Rat

## Refusals: why an action is not allowed now
no-not-now = not now
no-only-between-phases = life is given or exchanged only between predation phases
no-eliminated = you are eliminated: you can only give your predator cards away
no-only-eliminated-give = only an eliminated player gives predator cards away
no-not-during-duel = not during a duel
no-name-another = name another player at this table
no-give-to-living = give it to a living player
no-no-such-card = you hold no such predator card
no-useless-card = that card could prey on nobody: its number is the receiver's, or out
no-already-ready = you are ready already
no-target-out = that player is eliminated
no-trades-nothing = the offer trades nothing
no-empty-box = that would leave your box empty
no-unaffordable = that trade asks for more life than a box holds, or would leave one empty: ask for a new one
no-in-reserve = that player is in the Nature Reserve this round
no-no-duel = no duel
no-not-in-duel = you are not in this duel
no-chosen-already = you have chosen for this throw
no-dice-need-no-choice = dice duels need no choice
no-too-much = at most { $most } life a side
no-hold-only = you hold only { $life } life
no-card-gone = you no longer hold the predator card for seat { $seat }

## Your own life and cards, each change with its amount (issue 71)
c-traded = Round { $round }: a life trade with { $other }: { $gave } given, { $got } received: life { $from } → { $to }.
c-won-preying = Round { $round }: you preyed on { $other } and won the duel: +{ $by } (N = { $n }): life { $from } → { $to }.
c-won-preyed = Round { $round }: { $other } preyed on you and you won the duel: +{ $by } (N = { $n }): life { $from } → { $to }.
c-lost-preying = Round { $round }: you preyed on { $other } and lost the duel: -{ $by } (N = { $n }): life { $from } → { $to }.
c-lost-preyed = Round { $round }: { $other } preyed on you and won the duel: -{ $by } (N = { $n }): life { $from } → { $to }.
c-lost-preying-reserve = Round { $round }: you preyed on { $other } and lost the duel: -{ $by } (N = { $n }): life { $from } → { $to }. You enter the Nature Reserve: nobody may prey on you this round.
c-lost-preyed-reserve = Round { $round }: { $other } preyed on you and won the duel: -{ $by } (N = { $n }): life { $from } → { $to }. You enter the Nature Reserve: nobody may prey on you this round.
c-eliminated = Round { $round }: you won the duel and eliminated { $other }: +{ $n } (N) and +{ $bonus } for the elimination: life { $from } → { $to }.
c-out = Round { $round }: { $other } won the duel (N = { $n }): -{ $by } empties your box: life { $from } → 0. You are eliminated.
c-starved = Round { $round }: you did not prey and nobody preyed on you: you starve, -{ $by } (N = { $n }): life { $from } → { $to }.
c-starved-out = Round { $round }: you did not prey and nobody preyed on you: starving (N = { $n }) empties your box: life { $from } → 0. You are out.
c-card-handed-in = Round { $round }: you handed the referee your predator card for seat { $card }.
c-card-given = You gave your predator card for seat { $card } to { $other }.
c-card-received = { $other } gave you the predator card for seat { $card }.
