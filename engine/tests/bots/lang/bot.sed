# Holds its forts: replies with no commands once the marches header of a state arrives.
s/^[0-9][0-9]* marches:$/0 commands:/p
