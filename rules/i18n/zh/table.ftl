# 牌桌核心的用语：各游戏共用的拒绝理由。
no-unknown-seat = 本桌没有 { $seat } 号座位
no-not-your-turn = 还没轮到你
no-game-over = 游戏已经结束
no-offer-to-you = 对方没有向你提出交易
no-offer-from-you = 你没有向对方提出交易
