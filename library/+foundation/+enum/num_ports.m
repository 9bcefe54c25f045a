classdef num_ports < int32
% The number of graphical ports of a block that may show a second port
% at the same node (foundation.thermal.elements.mass, num_ports): one
% port, or two ports on opposite sides of the icon that are the same
% node.
    enumeration
        one(1)
        two(2)
    end
end
