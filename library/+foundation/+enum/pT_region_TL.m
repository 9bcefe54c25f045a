classdef pT_region_TL < int32
% How the region of pressures and temperatures where a thermal liquid's
% property tables are valid is given (foundation.thermal_liquid.
% thermal_liquid, pT_region_flag): validity_matrix, a matrix of ones
% (valid) and zeros over the table grid; min_max, the ranges between the
% minimum and maximum temperature and pressure.
    enumeration
        validity_matrix(1)
        min_max(2)
    end
end
