-- Takes the exclusive entries of several keys in one step, in the order given, each as acquire.lua takes it on a
-- single try that does not wait, and stops at the first that may not hold: the entries taken are those of the first
-- keys, so that a multi-lock still takes its keys in its one global order. The function's one line below stands for
-- acquire.lua's text (LuaScript.loadAround), the body of a function of its KEYS and ARGV, so that both run one text.
-- KEYS acquire.lua's four keys of each lock, lock after lock
-- ARGV acquire.lua's ten arguments of each lock, lock after lock: each an exclusive try that does not wait
-- Returns the fencing tokens of the locks taken, in order; empty if the first may not hold.
local function acquire(KEYS, ARGV)
--@BODY@--
end

local tokens = {}
for i = 0, #KEYS / 4 - 1 do
  local reply = acquire({KEYS[i * 4 + 1], KEYS[i * 4 + 2], KEYS[i * 4 + 3], KEYS[i * 4 + 4]},
    {unpack(ARGV, i * 10 + 1, i * 10 + 10)})
  if reply[1] ~= 1 then
    break
  end
  tokens[#tokens + 1] = reply[2]
end
return tokens
