classdef Shape < int32
% An enumeration as a Simscape library writes one: a MATLAB class file in
% a package folder.  lmdl reads its enumeration block only.
    enumeration
        round(1)
        square(2)
        hexagonal(6)
    end
    methods (Static, Hidden)
        function map = displayText()
            map = containers.Map;
            map('round') = 'Round';
        end
    end
end
